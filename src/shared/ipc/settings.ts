import { z } from 'zod'
import type { DomainContract } from './define'

export const ProviderSetting = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.string(),
  baseURL: z.string(),
  requiresKey: z.boolean(),
  /** Where the key in use comes from; `none` when there is none. */
  keySource: z.enum(['env', 'config', 'secret', 'placeholder', 'none']),
  /** The environment variables read first. */
  envKeys: z.array(z.string()),
})
export type ProviderSetting = z.infer<typeof ProviderSetting>

/** A local model runtime (Ollama, LM Studio) at its configured or default port, and the models it serves. */
export const LocalRuntime = z.object({
  providerId: z.string(),
  name: z.string(),
  baseURL: z.string(),
  running: z.boolean(),
  models: z.array(z.string()),
  problem: z.string().optional(),
})
export type LocalRuntime = z.infer<typeof LocalRuntime>

const Defaults = z.object({ model: z.string().nullable(), defaultAgent: z.string().nullable(), file: z.string() })

const ProviderRef = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'provider id')

export const settingsContract = {
  methods: {
    providers: { input: z.object({}).strict(), output: z.array(ProviderSetting) },
    /** Stores a key in the app's secret store (the OS keychain in the desktop app); never in config files. */
    setApiKey: {
      input: z.object({ providerId: ProviderRef, apiKey: z.string().trim().min(1).max(1000) }).strict(),
      output: z.object({ protection: z.string() }),
    },
    /** How the secret store protects keys, as the app really does it (shown next to the key fields). */
    secretStore: { input: z.object({}).strict(), output: z.object({ protection: z.string(), encrypted: z.boolean() }) },
    deleteApiKey: { input: z.object({ providerId: ProviderRef }).strict(), output: z.object({ deleted: z.boolean() }) },
    /** Sends a tiny request to the model to check key and endpoint. */
    testConnection: {
      input: z.object({ model: z.string().regex(/^[^/\s]+\/\S+$/, 'provider/model') }).strict(),
      output: z.object({ ok: z.boolean(), latencyMs: z.number(), error: z.object({ name: z.string(), message: z.string() }).optional() }),
    },
    /** Asks the local runtimes (Ollama, LM Studio) for their models: "Use a local model" without a key. */
    localModels: { input: z.object({}).strict(), output: z.array(LocalRuntime) },
    /** The default model and agent for new sessions, as set in the user's config file. */
    defaults: { input: z.object({}).strict(), output: Defaults },
    /** Writes them to the user's config file (`model`, `defaultAgent`; null removes), comments kept. */
    setDefaults: {
      input: z.object({ model: z.string().regex(/^[^/\s]+\/\S+$/, 'provider/model').nullable().optional(), defaultAgent: z.string().min(1).max(100).nullable().optional() }).strict(),
      output: Defaults,
    },
  },
  events: {},
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'ConfigInvalid', 'SecretUnreadable', 'StorageUnavailable', 'ProviderUnknown',
  ],
} satisfies DomainContract<'settings'>
