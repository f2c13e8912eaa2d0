import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|import\s*['"]([^'"]+)['"]/g

function specifiers(source: string): string[] {
  return [...source.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').filter(Boolean)
}

function resolveModule(from: string, spec: string, aliases: Record<string, string>): string | undefined {
  let base: string | undefined
  for (const [prefix, target] of Object.entries(aliases)) if (spec.startsWith(prefix)) base = join(target, spec.slice(prefix.length))
  if (!base && spec.startsWith('.')) base = resolve(dirname(from), spec)
  if (!base) return undefined
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  return undefined
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  )
}

/**
 * Every chain of imports from a file under `roots` that reaches `electron`,
 * directly or through other project files (e.g. core → main/electron/* → electron).
 */
export function electronImportChains(projectRoot: string, roots: string[], aliases: Record<string, string>): string[] {
  const violations: string[] = []
  const memo = new Map<string, string[] | null>()
  const chainFrom = (file: string, stack: Set<string>): string[] | null => {
    if (memo.has(file)) return memo.get(file) ?? null
    if (stack.has(file)) return null
    stack.add(file)
    let found: string[] | null = null
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      if (spec === 'electron' || spec.startsWith('electron/')) {
        found = [relative(projectRoot, file), spec]
        break
      }
      const next = resolveModule(file, spec, aliases)
      const sub = next ? chainFrom(next, stack) : null
      if (sub) {
        found = [relative(projectRoot, file), ...sub]
        break
      }
    }
    stack.delete(file)
    memo.set(file, found)
    return found
  }
  for (const root of roots) {
    if (!existsSync(root)) continue
    for (const file of walk(root)) {
      const chain = chainFrom(file, new Set())
      if (chain) violations.push(chain.join(' → '))
    }
  }
  return violations
}
