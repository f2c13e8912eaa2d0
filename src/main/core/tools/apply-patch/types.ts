/** One file operation of a patch, in either format. */
export type PatchOp =
  | { type: 'add'; path: string; content: string }
  | { type: 'delete'; path: string }
  | { type: 'update'; path: string; moveTo?: string; apply: (content: string) => string }
