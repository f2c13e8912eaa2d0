import { z } from 'zod'
import { defineError } from './define'

/** Failures of the app's own files: the session database, settings, secrets. */
export const StorageErrors = {
  /** The disk holding the data folder is full (or over quota). */
  StorageFull: defineError('StorageFull', { path: z.string() }),
  /** The database file is damaged or is not a database. */
  StorageDamaged: defineError('StorageDamaged', { path: z.string() }),
  /** The data folder or the database cannot be read or written (permissions, I/O errors, read-only disk). */
  StorageUnavailable: defineError('StorageUnavailable', { path: z.string() }),
  /** A config file does not parse or breaks its schema; the message names the file and the place. */
  ConfigInvalid: defineError('ConfigInvalid', {
    /** Absolute path of the offending file, or `HOTARU_CONFIG_CONTENT`. */
    file: z.string(),
    /** JSON path of the first issue (`""` for the document itself, e.g. a syntax error). */
    path: z.string().optional(),
    /** 1-based position, present for syntax errors. */
    line: z.number().optional(),
    column: z.number().optional(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
  /** The file of stored keys exists but cannot be read. */
  SecretUnreadable: defineError('SecretUnreadable', { path: z.string().optional() }),
} as const
