export const ERROR_STATUS = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  VALIDATION_ERROR: 400,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS

/** The body of every error response. */
export interface ApiError {
  error: string
  code: ErrorCode
  /** Optional machine-readable detail, e.g. the offending field or per-record import errors. */
  details?: unknown
}

/** Expected failures (bad input, missing things, refusals). Programmer errors stay plain `Error`. */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly details?: unknown
  /** A more precise status than the code's own (408 for a body that stopped arriving, 431 for huge headers). */
  readonly statusOverride?: number
  constructor(code: ErrorCode, message: string, details?: unknown, status?: number) {
    super(message)
    this.name = 'AppError'
    this.code = code
    this.details = details
    this.statusOverride = status
  }
  get status(): number {
    return this.statusOverride ?? ERROR_STATUS[this.code]
  }
  toJSON(): ApiError {
    return this.details === undefined
      ? { error: this.message, code: this.code }
      : { error: this.message, code: this.code, details: this.details }
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError
