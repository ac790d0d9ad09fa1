import { Component, type ReactNode } from 'react'
import { ErrorState } from './Feedback.tsx'

/**
 * A page that fails to load (its code could not be fetched, say after an update while the tab was open) or
 * to draw shows why and a way out, instead of leaving the window blank. App keys it by path, so moving on resets it.
 */
export class PageBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null }

  static getDerivedStateFromError(error: Error) {
    return { error }
  }

  override render() {
    const { error } = this.state
    if (!error) return this.props.children
    return <ErrorState message={`This page could not be shown (${error.message}). Reloading the window usually brings it back.`} onRetry={() => location.reload()} />
  }
}
