import { z } from 'zod'
import type { ProviderPreset } from './presets'
import type { ResolvedProvider } from './credentials'

/** A local model runtime (Ollama, LM Studio) as found at its endpoint. */
export interface LocalRuntime {
  providerId: string
  name: string
  baseURL: string
  /** It answered `GET {baseURL}/models`. */
  running: boolean
  /** `provider/model` ids it serves. */
  models: string[]
  /** Why it is not usable: not running there, or an answer that is not a model list. */
  problem?: string
}

/** How long a runtime may take to answer before it counts as not running (it is on this machine). */
export const LOCAL_PROBE_TIMEOUT_MS = 1500

const ModelList = z.object({ data: z.array(z.object({ id: z.string().min(1) })) })

/**
 * Asks each local, key-less provider (Ollama at 11434, LM Studio at 1234 unless their
 * base URL is configured or set in the environment) for its models, through the
 * OpenAI-compatible `GET /v1/models` both serve. All are asked at once; none fails the rest.
 */
export async function probeLocalRuntimes(
  presets: readonly ProviderPreset[],
  resolve: (providerId: string) => Promise<ResolvedProvider>,
  options: { timeoutMs?: number; fetch?: typeof fetch } = {},
): Promise<LocalRuntime[]> {
  const get = options.fetch ?? fetch
  const local = presets.filter((p) => !p.requiresKey && p.kind === 'openai-compatible')
  return Promise.all(
    local.map(async (preset): Promise<LocalRuntime> => {
      const { baseURL } = await resolve(preset.id)
      const base = { providerId: preset.id, name: preset.name, baseURL, models: [] }
      let response: Response
      try {
        response = await get(`${baseURL.replace(/\/$/, '')}/models`, { signal: AbortSignal.timeout(options.timeoutMs ?? LOCAL_PROBE_TIMEOUT_MS) })
      } catch (error) {
        const reason = error instanceof Error && error.name === 'TimeoutError' ? 'no answer in time' : ((error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message)
        return { ...base, running: false, problem: `not running at ${baseURL} (${reason})` }
      }
      const body: unknown = await response.json().catch(() => undefined)
      const list = ModelList.safeParse(body)
      if (!response.ok || !list.success) {
        return { ...base, running: true, problem: `${baseURL}/models answered ${response.status} without a model list` }
      }
      const models = list.data.data.map((m) => `${preset.id}/${m.id}`)
      return { ...base, running: true, models, ...(models.length === 0 ? { problem: 'running, but no model is installed (ollama pull …, or load one in LM Studio)' } : {}) }
    }),
  )
}
