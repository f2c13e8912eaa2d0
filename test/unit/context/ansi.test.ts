import { describe, expect, it } from 'vitest'
import { toModelMessages } from '../../../src/main/core/agent/transcript'
import { assistant, tool, toolParts, user } from './builders'

describe('tool output for the model', () => {
  it('has terminal colour codes stripped, while the stored output keeps them', () => {
    const colored = '\u001b[31merror\u001b[0m: \u001b[1mfailed\u001b[22m'
    const history = [user('run it'), assistant([tool('bash', colored)])]
    const { messages } = toModelMessages(history)
    expect(JSON.stringify(messages)).toContain('error: failed')
    expect(JSON.stringify(messages)).not.toContain('\\u001b')
    const [part] = toolParts(history)
    expect(part?.state.status === 'completed' ? part.state.output : '').toBe(colored)
  })
})
