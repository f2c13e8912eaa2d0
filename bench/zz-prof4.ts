import { SnapshotEngine } from '/work/main/src/main/core/snapshot/index'
import { rmSync, writeFileSync, readdirSync } from 'node:fs'
const root = process.argv[2]
rmSync('/tmp/exp/prof/store4', { recursive: true, force: true })
const e = new SnapshotEngine({ root, storeDir: '/tmp/exp/prof/store4' })
const files: string[] = []
const walk = (d: string) => { for (const x of readdirSync(d, { withFileTypes: true })) { if (x.isDirectory()) walk(d + '/' + x.name); else files.push(d + '/' + x.name) } }
walk(root + '/src')
const w = await e.watch()
e.snapshot()
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
await sleep(300)
for (let k = 0; k < 8; k++) {
  const base = e.snapshot().id
  for (const f of files.slice(k * 100, k * 100 + 100)) writeFileSync(f, '// more\n', { flag: 'a' })
  while (e.changeFeed.pendingPaths < 100) await sleep(5)
  let t = performance.now(); const tx = e.beginRestore(base); const t1 = performance.now() - t
  t = performance.now(); const r = tx.run(); const t2 = performance.now() - t
  console.log('begin', t1.toFixed(1), 'run', t2.toFixed(1), 'scan', e.lastScan?.durationMs.toFixed(1), r.written)
  await sleep(300)
}
await w.dispose()
