export { Welcome } from './Welcome'
