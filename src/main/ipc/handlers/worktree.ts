import { ErrorNames, HotaruError } from '@shared/errors'
import type { DomainHandlers } from '../router'

function notImplemented(): never {
  throw new HotaruError(ErrorNames.Unsupported, { message: 'worktrees are not implemented yet' })
}

export const worktreeHandlers: DomainHandlers<'worktree'> = {
  list: () => notImplemented(),
  create: () => notImplemented(),
  open: () => notImplemented(),
  diff: () => notImplemented(),
  file: () => notImplemented(),
  previewMerge: () => notImplemented(),
  merge: () => notImplemented(),
  remove: () => notImplemented(),
}
