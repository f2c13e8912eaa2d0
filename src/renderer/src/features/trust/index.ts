export { RestrictedBadge } from './RestrictedBadge'
export { TrustPrompt } from './TrustPrompt'
export { TrustSettings } from './TrustSettings'
import './trust.css'
