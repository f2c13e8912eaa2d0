import { safeStorage } from 'electron'
import type { SecretCodec } from '../core/secrets/file-store'

/** The part of Electron's `safeStorage` the codec uses (a stand-in in tests). */
export type SafeStorageLike = Pick<typeof safeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'> & {
  getSelectedStorageBackend?: () => string
}

/** Shown when Chromium fell back to its hard-coded key on Linux (no keyring reachable). */
export const BASIC_TEXT_PROTECTION = 'not encrypted by the OS (no keyring: Chromium’s basic_text store with a built-in key)'

/**
 * Secrets encrypted with the OS keychain (Keychain, DPAPI, libsecret/kwallet);
 * undefined when none is available. On Linux the backend Chromium actually chose is
 * reported: `basic_text` "encrypts" with a key built into every copy of Chromium, so
 * it is named as not encrypted by the OS rather than passed off as a keychain.
 */
export function safeStorageCodec(storage: SafeStorageLike = safeStorage, platform: NodeJS.Platform = process.platform): SecretCodec | undefined {
  if (!storage.isEncryptionAvailable()) return undefined
  const backend = platform === 'linux' ? storage.getSelectedStorageBackend?.() : undefined
  return {
    protection: backend === 'basic_text' ? BASIC_TEXT_PROTECTION : backend && backend !== 'unknown' ? `OS keychain (${backend})` : 'OS keychain',
    encrypted: backend !== 'basic_text',
    encode: (plain) => storage.encryptString(plain).toString('base64'),
    decode: (stored) => storage.decryptString(Buffer.from(stored, 'base64')),
  }
}
