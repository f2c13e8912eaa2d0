import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm, type FakeTurn } from '../fixtures/fake-llm'
import { fakeProviderEnv, runHotaru } from '../support/cli'
import { JPEG_40x30, pngImage } from '../support/images'
import { tempDir, writeTree } from '../support/temp'

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

async function fake(turns: FakeTurn[] = []) {
  const server = await startFakeLlm({ turns })
  servers.push(server)
  return server
}

/** A project holding a screenshot (PNG), a photo (a JPEG, named .png) and a text file named like an image. */
function project(): string {
  return writeTree(tempDir(), { 'screen.png': pngImage(64, 48), 'photo.png': JPEG_40x30, 'notes.png': 'not a picture\n' })
}

describe('hotaru run --image', () => {
  it('sends each image as an image block, typed by its bytes, ahead of the message', async () => {
    const server = await fake([{ text: 'Two pictures.' }])
    const dir = project()
    const result = await runHotaru(
      ['run', '--dir', dir, '--model', 'anthropic/claude-sonnet-4-6', '--image', join(dir, 'screen.png'), '--image', join(dir, 'photo.png'), 'compare', 'these'],
      fakeProviderEnv(server, tempDir()),
    )
    expect(result.stderr).not.toMatch(/error/i)
    expect(result.code).toBe(0)
    const request = server.requests.find((r) => r.api === 'anthropic')
    expect(request?.status).toBe(200)
    const content = (request?.body as { messages: Array<{ content: Array<Record<string, unknown>> }> }).messages[0]?.content ?? []
    expect(content.filter((b) => b.type === 'image')).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pngImage(64, 48).toString('base64') } },
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: JPEG_40x30.toString('base64') } },
    ])
    // The user's words end the message, after the images.
    expect(content.at(-1)).toMatchObject({ type: 'text', text: 'compare these' })
  })

  it('sends images to Chat Completions as data URLs', async () => {
    const server = await fake([{ text: 'A square.' }])
    const dir = project()
    const result = await runHotaru(['run', '--dir', dir, '--model', 'openai/gpt-4.1', '--image', join(dir, 'photo.png'), 'what is it'], fakeProviderEnv(server, tempDir()))
    expect(result.code).toBe(0)
    const request = server.requests.find((r) => r.api === 'openai')
    expect(request?.status).toBe(200)
    expect(JSON.stringify(request?.body)).toContain(`{"type":"image_url","image_url":{"url":"data:image/jpeg;base64,${JPEG_40x30.toString('base64')}"}}`)
  })

  it('names a missing file, a file that is not an image and an image over the API’s size, and sends nothing', async () => {
    const server = await fake()
    const dir = project()
    const huge = join(dir, 'huge.png')
    writeFileSync(huge, pngImage(1400, 1000, { noise: true }))
    const env = fakeProviderEnv(server, tempDir())
    const run = (image: string) => runHotaru(['run', '--dir', dir, '--model', 'anthropic/claude-sonnet-4-6', '--image', image, 'look'], env)

    const missing = await run('gone.png')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('cannot read image gone.png: no such file')
    const text = await run(join(dir, 'notes.png'))
    expect(text.code).toBe(1)
    expect(text.stderr).toContain('notes.png is not a PNG, JPEG, GIF or WebP image')
    const big = await run(huge)
    expect(big.code).toBe(1)
    expect(big.stderr).toMatch(/huge\.png is too large for anthropic\/claude-sonnet-4-6: 5\.\d MB encoded, over the 5 MB the API takes per image/)
    expect(server.requests.filter((r) => r.api !== 'control')).toHaveLength(0)
  })

  it('fails before sending anything when the model does not take images', async () => {
    const server = await fake()
    const dir = project()
    const result = await runHotaru(['run', '--dir', dir, '--model', 'deepseek/deepseek-chat', '--image', join(dir, 'screen.png'), 'look'], fakeProviderEnv(server, tempDir()))
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('deepseek/deepseek-chat does not accept images; pick a model with vision and send the message again')
    expect(server.requests.filter((r) => r.api !== 'control')).toHaveLength(0)
  })
})
