export { CommandPalette } from './CommandPalette'
export { installKeybindings } from './keybindings'
export { registerCommands, runCommand, allCommands, type Command } from './registry'
