// Text files imported as strings (tool and agent prompts), handled by Vite and Vitest.
declare module '*.txt?raw' {
  const text: string
  export default text
}
