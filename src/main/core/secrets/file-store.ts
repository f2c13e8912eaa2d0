import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { ErrorNames, HotaruError } from '@shared/errors'

/** API keys and tokens, by key. */
export interface SecretStore {
  get(key: string): Promise<string | undefined>
  set(key: string, value: string): Promise<void>
  delete(key: string): Promise<void>
}

/** How values are sealed on disk: the desktop app encrypts with the OS keychain (safeStorage). */
export interface SecretCodec {
  /** A short label for messages ("OS keychain", "file permissions"). */
  readonly protection: string
  /** Whether the OS encrypts the values (a keychain); false for plain files and Chromium's built-in key. */
  readonly encrypted?: boolean
  encode(plain: string): string
  decode(stored: string): string
}

/** Outside the desktop app the file's 0600 mode is the protection (as ssh keys and CLI tokens do). */
export const PLAIN_CODEC: SecretCodec = { protection: 'file permissions (0600)', encrypted: false, encode: (v) => v, decode: (v) => v }

/**
 * Secrets in one JSON file readable by the user only, written atomically.
 * Values pass through a codec, so the desktop app stores only ciphertext.
 */
export class FileSecretStore implements SecretStore {
  constructor(
    private readonly file: string,
    private readonly codec: SecretCodec = PLAIN_CODEC,
  ) {}

  async get(key: string): Promise<string | undefined> {
    const stored = this.read()[key]
    if (stored === undefined) return undefined
    try {
      return this.codec.decode(stored)
    } catch (error) {
      throw new HotaruError('SecretUnreadable', {
        message: `the stored secret "${key}" cannot be decrypted (${(error as Error).message}); set it again`,
      })
    }
  }

  async set(key: string, value: string): Promise<void> {
    const all = this.read()
    all[key] = this.codec.encode(value)
    this.write(all)
  }

  async delete(key: string): Promise<void> {
    const all = this.read()
    if (!(key in all)) return
    delete all[key]
    this.write(all)
  }

  /** Keys present (values never leave the store this way). */
  keys(): string[] {
    return Object.keys(this.read())
  }

  private read(): Record<string, string> {
    let text: string
    try {
      text = readFileSync(this.file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
      throw error
    }
    try {
      const parsed = JSON.parse(text) as unknown
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object')
      return parsed as Record<string, string>
    } catch (error) {
      throw new HotaruError(ErrorNames.Internal, { message: `${this.file} is damaged (${(error as Error).message}); remove it and set the keys again` })
    }
  }

  private write(all: Record<string, string>): void {
    mkdirSync(dirname(this.file), { recursive: true })
    const temp = `${this.file}.${process.pid}.tmp`
    writeFileSync(temp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 })
    chmodSync(temp, 0o600)
    renameSync(temp, this.file)
  }
}
