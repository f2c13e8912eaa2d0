import { describe, expect, it } from 'vitest'
import { toolHookFailures, type ToolPart } from '../../../src/renderer/src/features/chat/tools/describe'

function part(metadata: Record<string, unknown> | undefined): ToolPart {
  return { id: 'prt_1', sessionId: 'ses_1', messageId: 'msg_1', type: 'tool', callId: 'c1', tool: 'bash', state: { status: 'completed', input: {}, ...(metadata ? { metadata } : {}) } }
}

describe('toolHookFailures', () => {
  it('reads the failed hooks of a call with their event, and skips malformed entries', () => {
    const failures = toolHookFailures(
      part({
        hookFailures: [
          { event: 'PreToolUse', command: 'lint', error: 'exit code 1' },
          { event: 'PostToolUse', command: 'fmt', error: 'timed out after 60 s and was killed' },
          { command: 'old', error: 'no event recorded' },
          { event: 'PostToolUse', error: 'no command' },
          'not an object',
        ],
      }),
    )
    expect(failures).toEqual([
      { event: 'PreToolUse', command: 'lint', error: 'exit code 1' },
      { event: 'PostToolUse', command: 'fmt', error: 'timed out after 60 s and was killed' },
      { command: 'old', error: 'no event recorded' },
    ])
  })

  it('is empty for a call without hook failures', () => {
    expect(toolHookFailures(part(undefined))).toEqual([])
    expect(toolHookFailures(part({ hookFailures: 'x' }))).toEqual([])
  })
})
