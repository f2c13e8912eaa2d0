import type { DomainHandlers } from '../router'

export const appHandlers: DomainHandlers<'app'> = {
  info: (_input, { services }) => services.info(),
}
