import { spawn } from 'node:child_process'
import { HotaruError } from '@shared/errors'

/**
 * Contents of many `<commit>:<path>` objects through one `git cat-file --batch`: a missing
 * object (the file did not exist at that commit) is null. Paths with a newline cannot be asked
 * for this way and read as missing.
 */
export function gitObjects(cwd: string, specs: readonly string[]): Promise<Map<string, Buffer | null>> {
  const result = new Map<string, Buffer | null>()
  const asked = specs.filter((spec) => !spec.includes('\n'))
  for (const spec of specs) if (spec.includes('\n')) result.set(spec, null)
  if (asked.length === 0) return Promise.resolve(result)
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] })
    const chunks: Buffer[] = []
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.on('error', (error) => reject(new HotaruError('GitFailed', { message: `git cat-file failed: ${error.message}` })))
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new HotaruError('GitFailed', { message: `git cat-file failed: ${stderr.trim() || `exit ${code}`}` }))
        return
      }
      const out = Buffer.concat(chunks)
      let offset = 0
      for (const spec of asked) {
        const end = out.indexOf(10, offset)
        if (end < 0) break
        const header = out.subarray(offset, end).toString('utf8')
        offset = end + 1
        if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
          result.set(spec, null)
          continue
        }
        const size = Number(header.split(' ')[2])
        result.set(spec, out.subarray(offset, offset + size))
        offset += size + 1
      }
      resolve(result)
    })
    child.stdin.end(`${asked.join('\n')}\n`)
  })
}
