import { create } from 'zustand'

/**
 * The user's defaults for new sessions. There is no settings IPC yet, so they
 * live in this browser profile (localStorage) and travel with each request
 * (`session.create`, `agent.prompt`) instead of being written to config.
 */
export interface Preferences {
  /** `provider/model`; unset = the project's configured default. */
  defaultModel?: string
  defaultAgent?: string
}

const KEY = 'hotaru.preferences'

function read(): Preferences {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}')
    if (!parsed || typeof parsed !== 'object') return {}
    const record = parsed as Record<string, unknown>
    return {
      ...(typeof record.defaultModel === 'string' ? { defaultModel: record.defaultModel } : {}),
      ...(typeof record.defaultAgent === 'string' ? { defaultAgent: record.defaultAgent } : {}),
    }
  } catch {
    return {}
  }
}

export const usePreferences = create<Preferences>(() => read())

export function setPreferences(patch: Partial<Preferences>): void {
  const next: Preferences = { ...usePreferences.getState(), ...patch }
  for (const key of Object.keys(next) as (keyof Preferences)[]) if (!next[key]) delete next[key]
  usePreferences.setState(next, true)
  localStorage.setItem(KEY, JSON.stringify(next))
}
