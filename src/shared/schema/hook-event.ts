import { z } from 'zod'

/**
 * Hook events (`hooks` in config). Its own module: the config schema needs it, and importing it must
 * not build every session schema beside it.
 */
export const HookEventName = z.enum(['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SessionStart'])
export type HookEventName = z.infer<typeof HookEventName>
