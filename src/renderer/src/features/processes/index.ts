export { ProcessesButton } from './ProcessesButton'
