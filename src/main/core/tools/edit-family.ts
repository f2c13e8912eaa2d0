/**
 * Which edit tools a model is offered. Each family is trained on one way of editing: Claude on
 * exact-string replacement (`edit`, `multiedit`), OpenAI's GPT, o-series and codex models on
 * `apply_patch` envelopes (`write`, which plans and new files use, stays for both). Offering both costs ~2.3k characters of definitions on every request
 * and invites the model to mix them, so each model gets its own family; models of other vendors
 * (DeepSeek, Kimi, local ones) get the string-replacement family, which their tool-use training
 * shares. An agent's `tools` config can still turn any of them on.
 */
const PATCH_FAMILY = /(^|\/)(gpt-|o\d|codex)/i

export function usesPatchEdits(model: string): boolean {
  const [provider = '', ...rest] = model.split('/')
  const id = rest.join('/')
  return provider === 'openai' || PATCH_FAMILY.test(id)
}

/** Built-in tools turned off for a model (before an agent's `tools` config). */
export function editFamilyDefaults(model: string): Record<string, boolean> {
  return usesPatchEdits(model) ? { edit: false, multiedit: false } : { apply_patch: false }
}
