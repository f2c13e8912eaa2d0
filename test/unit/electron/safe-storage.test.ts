import { describe, expect, it, vi } from 'vitest'

// The module's default argument is Electron's own safeStorage; every test passes a stand-in instead.
vi.mock('electron', () => ({ safeStorage: {} }))
import { BASIC_TEXT_PROTECTION, safeStorageCodec, type SafeStorageLike } from '../../../src/main/electron/safe-storage'

/** Electron's safeStorage cannot run here: a stand-in with the same surface, reversible so round trips are real. */
function storage(backend: string | undefined, available = true): SafeStorageLike {
  return {
    isEncryptionAvailable: () => available,
    encryptString: (plain: string) => Buffer.from([...plain].reverse().join('')),
    decryptString: (data: Buffer) => [...data.toString()].reverse().join(''),
    ...(backend !== undefined ? { getSelectedStorageBackend: () => backend } : {}),
  } as SafeStorageLike
}

describe('the secret store backend', () => {
  it('reports basic_text on Linux as not encrypted by the OS', () => {
    const codec = safeStorageCodec(storage('basic_text'), 'linux')
    expect(codec?.protection).toBe(BASIC_TEXT_PROTECTION)
    expect(codec?.protection).toContain('not encrypted by the OS')
    expect(codec?.encrypted).toBe(false)
    expect(codec?.decode(codec.encode('sk-1'))).toBe('sk-1')
  })

  it('names a real keyring backend', () => {
    const codec = safeStorageCodec(storage('gnome_libsecret'), 'linux')
    expect(codec).toMatchObject({ protection: 'OS keychain (gnome_libsecret)', encrypted: true })
  })

  it('is the OS keychain on macOS and Windows, and absent when encryption is unavailable', () => {
    expect(safeStorageCodec(storage(undefined), 'darwin')).toMatchObject({ protection: 'OS keychain', encrypted: true })
    expect(safeStorageCodec(storage('basic_text', false), 'linux')).toBeUndefined()
  })
})
