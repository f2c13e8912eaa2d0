import { HotaruError } from '@shared/errors'

export const SessionErrorNames = {
  SessionNotFound: 'SessionNotFound',
  SessionBusy: 'SessionBusy',
  /** A turn runs in one of the project's sessions, in this or another process. */
  ProjectBusy: 'ProjectBusy',
  Aborted: 'Aborted',
  Interrupted: 'Interrupted',
} as const

export function sessionNotFound(id: string): HotaruError {
  return new HotaruError(SessionErrorNames.SessionNotFound, { message: `no session "${id}"`, sessionId: id })
}
