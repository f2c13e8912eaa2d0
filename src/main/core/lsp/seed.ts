import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { ServerSpec } from './catalog'

/**
 * Whether the project at `root` uses a server's languages, by what its root shows: one of the server's
 * `markers` files, or a source file of its languages in `src/` or the root (`seed`: opening it makes the
 * server load the project). Servers without markers (JSON, YAML, CSS…) serve files every project has: never.
 */
export function languagesInUse(root: string, spec: Pick<ServerSpec, 'markers' | 'extensions'>): { seed: string | undefined } | undefined {
  if (!spec.markers) return undefined
  const seed = seedFile(root, spec.extensions)
  if (!seed && !spec.markers.some((marker) => existsSync(join(root, marker)))) return undefined
  return { seed }
}

/** A file of the server's languages in the project's `src` or at its root, or undefined (two directory reads at most). */
function seedFile(root: string, extensions: readonly string[]): string | undefined {
  for (const dir of [join(root, 'src'), root]) {
    let names: string[]
    try {
      names = readdirSync(dir).sort()
    } catch (error) {
      // No `src` folder (or an unreadable one): there is simply no seed there.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EACCES') continue
      throw error
    }
    const name = names.find((n) => extensions.some((ext) => n.endsWith(ext)) && !n.endsWith('.d.ts'))
    if (name) return join(dir, name)
  }
  return undefined
}
