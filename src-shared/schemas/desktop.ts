import { z } from 'zod'
import { EXPORT_FORMATS } from './export.ts'

/** Arguments of the desktop IPC channels (src-shared/desktop-api.ts), checked in the main process. */
export const zExportFormat = z.enum(EXPORT_FORMATS)
export const zOpenAtLogin = z.boolean()

/** POST /api/auth/desktop: the one-time token the desktop main process gave its window. */
export const zDesktopLoginBody = z.object({ token: z.string().min(16).max(200) }).strict()
