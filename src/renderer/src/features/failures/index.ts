import './failures.css'

export { AreaBoundary, type AreaBoundaryProps } from './AreaBoundary'
export { rootFailureOptions } from './report'
