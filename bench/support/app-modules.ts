/**
 * Lets a benchmark run under plain `node --import tsx` import the app's modules,
 * which use two build-time features: `@shared/…` (a path alias) and `./x.txt?raw`
 * (text as a string). Import this first, then load app modules with `await import()`
 * — static imports are resolved before any hook is registered.
 */
import { register } from 'node:module'

const sharedDir = new URL('../../src/shared/', import.meta.url).href

const hook = `
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
export async function resolve(specifier, context, next) {
  if (specifier.endsWith('?raw')) return { url: new URL(specifier, context.parentURL).href, shortCircuit: true }
  if (specifier.startsWith('@shared/')) {
    const base = ${JSON.stringify(sharedDir)} + specifier.slice('@shared/'.length)
    const file = existsSync(fileURLToPath(base + '.ts')) ? base + '.ts' : base + '/index.ts'
    return next(file, context)
  }
  return next(specifier, context)
}
export async function load(url, context, next) {
  if (!url.endsWith('?raw')) return next(url, context)
  const text = await readFile(new URL(url.slice(0, -'?raw'.length)), 'utf8')
  return { format: 'module', source: 'export default ' + JSON.stringify(text), shortCircuit: true }
}`

register(`data:text/javascript,${encodeURIComponent(hook)}`)
