import { checkEvent } from '../../src/main/core/bus/event-check'
import { createServices, type Services, type ServicesOptions } from '../../src/main/core/services'
import { afterEach } from 'vitest'
import { tempDir } from './temp'

const live: Services[] = []

/** Core services on a temp data dir, disposed after the test. */
export function testServices(options: Partial<ServicesOptions> = {}): Services {
  // Every payload is checked against its contract schema, as in development.
  const services = createServices({ dataDir: tempDir('hotaru-data-'), transport: 'serve', checkEvent, ...options })
  live.push(services)
  return services
}

afterEach(async () => {
  for (const services of live.splice(0)) await services.dispose()
})
