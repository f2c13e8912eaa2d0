import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Storage } from '../../../src/main/core/storage'
import { TrustService } from '../../../src/main/core/trust/trust-service'
import { tempDir } from '../../support/temp'

function setup() {
  const storage = Storage.open(tempDir())
  const root = tempDir('hotaru-trust-')
  const parent = join(root, 'src')
  const child = join(parent, 'repo')
  const grandchild = join(child, 'pkg')
  mkdirSync(grandchild, { recursive: true })
  return { trust: new TrustService(storage.trust), root, parent, child, grandchild, close: () => storage.close() }
}

describe('workspace trust decisions', () => {
  it('trusts nothing until told, and a trusted parent covers everything below it', () => {
    const { trust, parent, child, grandchild, close } = setup()
    expect(trust.state(child)).toEqual({ path: child, trusted: false })
    trust.trust(parent)
    expect(trust.state(grandchild)).toEqual({ path: grandchild, trusted: true, decidedBy: parent })
    close()
  })

  it('the nearest decision wins: a restricted folder below a trusted parent stays restricted', () => {
    const { trust, parent, child, grandchild, close } = setup()
    trust.trust(parent)
    trust.restrict(child)
    expect(trust.state(grandchild)).toMatchObject({ trusted: false, decidedBy: child })
    expect(trust.revoke(child)).toEqual({ removed: true, state: { path: child, trusted: true, decidedBy: parent } })
    expect(trust.revoke(child).removed).toBe(false)
    close()
  })

  it('decides by the canonical path: a link to a trusted folder is that folder, a link out of it is not', () => {
    const { trust, root, parent, child, close } = setup()
    const outside = join(root, 'outside')
    mkdirSync(outside)
    symlinkSync(child, join(root, 'alias'))
    symlinkSync(outside, join(child, 'escape'))
    trust.trust(parent)
    expect(trust.state(join(root, 'alias'))).toMatchObject({ path: child, trusted: true })
    expect(trust.state(join(child, 'escape'))).toMatchObject({ path: outside, trusted: false })
    close()
  })

  it('tells listeners about each change', () => {
    const { trust, child, close } = setup()
    const changes: unknown[] = []
    trust.onChange((change) => changes.push(change))
    trust.trust(child)
    trust.revoke(child)
    expect(changes).toEqual([
      { path: child, trusted: true },
      { path: child, trusted: undefined },
    ])
    close()
  })
})
