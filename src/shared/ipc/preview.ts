import { z } from 'zod'
import { ProjectId } from '../schema/project'
import { PreviewConsoleEntry, PreviewConsoleEvent, PreviewStatus } from '../schema/preview'
import type { DomainContract } from './define'

export const previewContract = {
  methods: {
    /** Starts the project's dev server (launch configuration `name`, else the first or a detected one); resolves when its URL answers. */
    start: { input: z.object({ projectId: ProjectId, name: z.string().min(1).max(100).optional() }).strict(), output: PreviewStatus },
    status: { input: z.object({ projectId: ProjectId }).strict(), output: PreviewStatus },
    /** Stops the dev server and everything it started. */
    stop: { input: z.object({ projectId: ProjectId }).strict(), output: PreviewStatus },
    /** The page's recent console messages, exceptions and failed requests. */
    console: { input: z.object({ projectId: ProjectId, since: z.number().optional() }).strict(), output: z.array(PreviewConsoleEntry) },
    /** Whether the preview may load `url` (loopback on the project's own ports, or typed by the user: `typed` adds it). */
    allowUrl: { input: z.object({ projectId: ProjectId, url: z.string().max(2000), typed: z.boolean().optional() }).strict(), output: z.object({ allowed: z.boolean() }) },
  },
  events: {
    status: PreviewStatus,
    console: PreviewConsoleEvent,
  },
} satisfies DomainContract<'preview'>
