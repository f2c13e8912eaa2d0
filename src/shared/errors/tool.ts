import { defineOpenError } from './define'

/** Failures of a tool call, written for the model; a tool adds what helps it call again (open). */
export const ToolErrors = {
  /** The call cannot succeed as made; the message tells the model how to fix it. */
  ToolError: defineOpenError('ToolError', {}),
  InvalidToolArguments: defineOpenError('InvalidToolArguments', {}),
  UnknownTool: defineOpenError('UnknownTool', {}),
  ToolAborted: defineOpenError('ToolAborted', {}),
} as const
