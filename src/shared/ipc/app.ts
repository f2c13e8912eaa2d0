import { z } from 'zod'
import type { DomainContract } from './define'

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  transport: z.enum(['electron', 'serve', 'cli']),
  dataDir: z.string(),
  capabilities: z.object({
    /** A native folder dialog exists (Electron); otherwise the UI asks for a path. */
    pickFolder: z.boolean(),
    /** Dropped files carry their filesystem path (Electron only). */
    dropPaths: z.boolean(),
  }),
})
export type AppInfo = z.infer<typeof AppInfo>

export const appContract = {
  methods: {
    info: { input: z.object({}).strict(), output: AppInfo },
  },
  events: {},
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'StorageFull', 'StorageDamaged', 'StorageUnavailable', 'ConfigInvalid', 'SecretUnreadable', 'NotFound',
  ],
} satisfies DomainContract<'app'>
