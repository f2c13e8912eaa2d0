import { describe, expect, it } from 'vitest'
import { bashTiming, cardText, headTail } from '../../../src/renderer/src/features/chat/tools/output-view'

describe('tool card output', () => {
  it('drops the notes meant for the model', () => {
    const model = '[Output truncated: 5000 lines, 90000 bytes; showing the last 2000 lines. The full output is saved at /x/y.txt — use the read tool on that path.]\n\nline a\nline b\n\nExit code: 1'
    expect(cardText(model)).toBe('line a\nline b')
    expect(cardText('ok\n\nThe command timed out after 10 ms and was killed with every process it started.\nExit code: 137')).toBe(
      'ok\n\nThe command timed out after 10 ms and was killed with every process it started.',
    )
    expect(cardText('plain')).toBe('plain')
  })

  it('shows head and tail of long output', () => {
    const text = Array.from({ length: 500 }, (_, i) => `l${i}`).join('\n')
    const cut = headTail(text)
    expect(cut?.head.split('\n')).toHaveLength(40)
    expect(cut?.tail.split('\n').at(-1)).toBe('l499')
    expect(cut?.hidden).toBe(380)
    expect(headTail('a\nb')).toBeNull()
  })

  it('separates the approval wait from the command time', () => {
    expect(bashTiming(1000, 9000, 1500)).toEqual({ runMs: 1500, waitMs: 6500 })
    expect(bashTiming(1000, 2600, 1500)).toEqual({ runMs: 1500, waitMs: 0 })
    expect(bashTiming(undefined, 2, 1)).toBeNull()
  })
})

describe('provider key status', () => {
  it('names the provider of a model that needs a key and has none', async () => {
    const { missingKey } = await import('../../../src/renderer/src/stores/provider-keys')
    const base = { baseURL: '', kind: 'openai-compatible', envKeys: [] }
    const providers = [
      { ...base, id: 'anthropic', name: 'Anthropic', requiresKey: true, keySource: 'none' as const },
      { ...base, id: 'openai', name: 'OpenAI', requiresKey: true, keySource: 'secret' as const },
      { ...base, id: 'ollama', name: 'Ollama', requiresKey: false, keySource: 'none' as const },
    ]
    expect(missingKey(providers, 'anthropic/claude-sonnet-4-6')?.name).toBe('Anthropic')
    expect(missingKey(providers, 'openai/gpt-4.1')).toBeNull()
    expect(missingKey(providers, 'ollama/llama3')).toBeNull()
    expect(missingKey(providers, 'unknown/x')).toBeNull()
  })
})
