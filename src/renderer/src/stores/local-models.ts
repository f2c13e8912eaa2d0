import { create } from 'zustand'
import type { LocalRuntime } from '@shared/ipc/settings'

/** The local runtimes (Ollama, LM Studio) found by the last "Use a local model": the model picker lists their models too. */
export const useLocalModels = create<{ runtimes: LocalRuntime[] }>(() => ({ runtimes: [] }))
