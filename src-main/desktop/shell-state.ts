import type { LanStatus } from '../../src-shared/schemas/lan.ts'

/** What the menu and tray show; rebuilt whenever sharing or the pipeline changes. */
export interface PipelineSummary {
  status: 'idle' | 'running' | 'cancelling' | 'completed' | 'failed' | 'cancelled'
  /** Percent, 0-100, while running. */
  progress: number
  stage: string | null
}

export interface ShellState {
  lan: Pick<LanStatus, 'running' | 'urls' | 'error'>
  pipeline: PipelineSummary | null
  openAtLogin: boolean
}

/** The actions menu and tray items call; implemented in desktop.ts. */
export interface ShellActions {
  showWindow(): void
  importWithDialog(): void
  exportWithDialog(): void
  setLanSharing(on: boolean): void
  copyLanAddress(): void
  setOpenAtLogin(open: boolean): void
  openDataFolder(): void
  quit(): void
}

export function lanLine(lan: ShellState['lan']): string {
  if (lan.running) return `Shared on your network: ${lan.urls[0] ?? ''}`
  return lan.error ? `Not shared: ${lan.error}` : 'Not shared on your network'
}

export function pipelineLine(p: PipelineSummary | null): string {
  if (!p) return 'Analysis: not started'
  if (p.status === 'running') return `Analysis: ${Math.round(p.progress)}%${p.stage ? ` (${p.stage.replace(/_/g, ' ')})` : ''}`
  if (p.status === 'cancelling') return 'Analysis: stopping'
  return `Analysis: ${p.status === 'completed' ? 'up to date' : p.status}`
}
