import { safeStorage } from 'electron'
import type { SecretCodec } from '../core/secrets/file-store'

/** Secrets encrypted with the OS keychain (Keychain, DPAPI, libsecret); undefined when none is available. */
export function safeStorageCodec(): SecretCodec | undefined {
  if (!safeStorage.isEncryptionAvailable()) return undefined
  return {
    protection: 'OS keychain',
    encode: (plain) => safeStorage.encryptString(plain).toString('base64'),
    decode: (stored) => safeStorage.decryptString(Buffer.from(stored, 'base64')),
  }
}
