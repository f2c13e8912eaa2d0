/** A file that could not be used (or was used, read leniently), with the reason; shown to the user, never dropped silently. */
export interface ExtensionError {
  file: string
  error: string
  /** The file was used anyway: `error` says what to fix. */
  used?: true
}

/** Where an extension was found; project files win over the user's own. */
export type ExtensionScope = 'project' | 'global' | 'home'

/** An error's message, without a stack: these are shown to users next to the file. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
