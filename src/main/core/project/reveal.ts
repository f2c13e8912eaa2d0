/** Shows a file or folder in the OS file manager; only the desktop app has one to offer. */
export interface ItemRevealer {
  reveal(absolutePath: string): void | Promise<void>
}
