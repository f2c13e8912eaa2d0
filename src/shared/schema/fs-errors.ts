/**
 * Error names of the fs domain, zod-free so the renderer can compare against
 * them without bundling schemas.
 */
export const FsErrorNames = {
  /** The file changed on disk since the caller read it (save would overwrite someone else's edit). */
  Conflict: 'Conflict',
  /** The target of a create or rename already exists. */
  AlreadyExists: 'AlreadyExists',
} as const
