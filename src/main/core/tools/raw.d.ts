/** Tool descriptions are plain text files imported as strings (`./read.txt?raw`), bundled by vite. */
declare module '*.txt?raw' {
  const text: string
  export default text
}
