import { HotaruError } from '@shared/errors'

export const ToolErrorNames = {
  /** The call cannot succeed as made; the message tells the model how to fix it. */
  ToolError: 'ToolError',
  InvalidArguments: 'InvalidToolArguments',
  UnknownTool: 'UnknownTool',
  Aborted: 'ToolAborted',
} as const

/** A failure written for the model: what went wrong and how to call the tool instead. */
export class ToolError extends HotaruError {
  constructor(message: string, data: Record<string, unknown> = {}) {
    super(ToolErrorNames.ToolError, { ...data, message })
  }
}
