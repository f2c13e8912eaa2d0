/** A small strict TypeScript project: main.ts uses math.ts. */
export const TS_FIXTURE: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext' }, include: ['src'] }),
  'package.json': JSON.stringify({ name: 'fixture', private: true, type: 'module' }),
  'src/math.ts': 'export function add(a: number, b: number): number {\n  return a + b\n}\n',
  'src/main.ts': "import { add } from './math.js'\nexport const total: number = add(1, 2)\n",
}

/** Polls until `check` holds (no fixed sleeps in tests); fails after `ms`. */
export async function waitFor(check: () => boolean | undefined, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
