import type { AnchorHTMLAttributes, MouseEvent } from 'react'
import { navigate } from '../stores/router.ts'

/** An in-app link: a real <a href> (middle-click, copy link) that navigates without reloading. */
export function Link({ to, onClick, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e)
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
    e.preventDefault()
    navigate(to)
  }
  return <a href={to} onClick={handle} {...rest} />
}

/** A link that leaves the app: new tab, no opener, no referrer; only http(s). */
export function ExternalLink({ href, children, ...rest }: { href: string | null } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  if (!href) return <span {...(rest as object)}>{children}</span>
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" {...rest}>
      {children}
    </a>
  )
}
