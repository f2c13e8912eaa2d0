export { TerminalPanel } from './TerminalPanel'
export { openTerminal, closeTerminal, inspectTerminals, inspectTerminalText } from './sessions'
