import { useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react'
import { PASSWORD_MIN_LENGTH } from '../../src-shared/schemas/users.ts'
import * as authApi from '../api/auth.ts'
import { ApiError } from '../api/client.ts'
import { Icon } from '../components/Icon.tsx'
import { Link } from '../components/Link.tsx'
import { navigate, useRouterStore } from '../stores/router.ts'
import { useSessionStore } from '../stores/session.ts'

function Field({ label, id, hint, ...rest }: { label: string; id: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={id} aria-describedby={hint ? `${id}-hint` : undefined} {...rest} />
      {hint && <p className="field-hint" id={`${id}-hint`}>{hint}</p>}
    </div>
  )
}

function AuthFrame({ title, lead, children, foot }: { title: string; lead: ReactNode; children: ReactNode; foot?: ReactNode }) {
  return (
    <div className="auth">
      <main className="auth-card" id="main">
        <div className="auth-brand"><span className="brand-mark" aria-hidden="true"><Icon name="library" size={20} /></span> Sheaf</div>
        <h1>{title}</h1>
        <p className="auth-lead">{lead}</p>
        {children}
        {foot && <div className="auth-foot">{foot}</div>}
      </main>
      <p className="auth-aside">Your saved posts, organised and searchable, kept on your own computer.</p>
    </div>
  )
}

function useSubmit(run: (form: FormData) => Promise<void>) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await run(new FormData(e.currentTarget))
    } catch (err) {
      setError(err instanceof ApiError && err.status === 429
        ? `Too many attempts. ${err.retryAfter ? `Try again in ${err.retryAfter} seconds.` : 'Wait a minute and try again.'}`
        : (err as Error).message)
    } finally {
      setBusy(false)
    }
  }
  return { busy, error, onSubmit }
}

const str = (f: FormData, k: string) => String(f.get(k) ?? '')

function SetupForm() {
  const signedIn = useSessionStore((s) => s.signedIn)
  const { busy, error, onSubmit } = useSubmit(async (f) => {
    if (str(f, 'password') !== str(f, 'confirm')) throw new Error('The two passwords differ.')
    const r = await authApi.setupAdmin({ name: str(f, 'name'), email: str(f, 'email'), password: str(f, 'password') })
    signedIn(r.user)
    navigate('/import', { replace: true })
  })
  return (
    <AuthFrame title="Welcome to Sheaf" lead="Create the admin account for this computer. You can invite the rest of your household afterwards.">
      <form className="form" onSubmit={onSubmit} noValidate={false}>
        <Field label="Your name" id="name" autoComplete="name" required maxLength={100} autoFocus />
        <Field label="E-mail" id="email" type="email" autoComplete="email" required />
        <Field label="Password" id="password" type="password" autoComplete="new-password" required minLength={PASSWORD_MIN_LENGTH} hint={`At least ${PASSWORD_MIN_LENGTH} characters.`} />
        <Field label="Password again" id="confirm" type="password" autoComplete="new-password" required minLength={PASSWORD_MIN_LENGTH} />
        {error && <p className="form-error" role="alert">{error}</p>}
        <button className="btn btn-primary btn-block" type="submit" disabled={busy}>{busy ? 'Creating…' : 'Create admin account'}</button>
      </form>
    </AuthFrame>
  )
}

function SignInForm() {
  const signedIn = useSessionStore((s) => s.signedIn)
  const search = useRouterStore((s) => s.search)
  const next = new URLSearchParams(search).get('next')
  const { busy, error, onSubmit } = useSubmit(async (f) => {
    const r = await authApi.login({ email: str(f, 'email'), password: str(f, 'password') })
    signedIn(r.user)
    navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : '/', { replace: true })
  })
  return (
    <AuthFrame title="Sign in" lead={next ? 'Sign in to carry on where you were.' : 'Welcome back.'}
      foot={<>Have an invite code? <Link to="/join">Join with it</Link></>}>
      <form className="form" onSubmit={onSubmit}>
        <Field label="E-mail" id="email" type="email" autoComplete="username" required autoFocus />
        <Field label="Password" id="password" type="password" autoComplete="current-password" required />
        {error && <p className="form-error" role="alert">{error}</p>}
        <button className="btn btn-primary btn-block" type="submit" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
    </AuthFrame>
  )
}

function JoinForm() {
  const signedIn = useSessionStore((s) => s.signedIn)
  const status = useSessionStore((s) => s.status)
  const user = useSessionStore((s) => s.user)
  const search = useRouterStore((s) => s.search)
  const params = new URLSearchParams(search)
  const fromLink = params.get('code') ?? params.get('invite') ?? ''
  const { busy, error, onSubmit } = useSubmit(async (f) => {
    if (str(f, 'password') !== str(f, 'confirm')) throw new Error('The two passwords differ.')
    const r = await authApi.register({ name: str(f, 'name'), email: str(f, 'email'), password: str(f, 'password'), inviteCode: str(f, 'inviteCode') })
    signedIn(r.user)
    navigate('/', { replace: true })
  })
  if (status === 'signed-in' && user) {
    return (
      <AuthFrame title="You are already signed in" lead={`You are signed in as ${user.name} (${user.email}).`}>
        <div className="form">
          <button type="button" className="btn btn-primary btn-block" onClick={() => navigate('/')}>Open the library</button>
          <button type="button" className="btn btn-block" onClick={() => void useSessionStore.getState().signOut().then(() => navigate(`/join${search}`))}>Sign out and join as someone else</button>
        </div>
      </AuthFrame>
    )
  }
  return (
    <AuthFrame title="Join Sheaf" lead={fromLink ? 'You were invited. Choose how you sign in.' : 'Enter the invite code you were given.'}
      foot={<>Already have an account? <Link to="/signin">Sign in</Link></>}>
      <form className="form" onSubmit={onSubmit}>
        <Field label="Invite code" id="inviteCode" required defaultValue={fromLink} readOnly={!!fromLink} autoComplete="off" spellCheck={false} />
        <Field label="Your name" id="name" autoComplete="name" required maxLength={100} autoFocus={!!fromLink} />
        <Field label="E-mail" id="email" type="email" autoComplete="email" required />
        <Field label="Password" id="password" type="password" autoComplete="new-password" required minLength={PASSWORD_MIN_LENGTH} hint={`At least ${PASSWORD_MIN_LENGTH} characters.`} />
        <Field label="Password again" id="confirm" type="password" autoComplete="new-password" required minLength={PASSWORD_MIN_LENGTH} />
        {error && <p className="form-error" role="alert">{error}</p>}
        <button className="btn btn-primary btn-block" type="submit" disabled={busy}>{busy ? 'Joining…' : 'Create my account'}</button>
      </form>
    </AuthFrame>
  )
}

/** Setup, sign-in and join: the pages reachable without a session. */
export function AuthPage() {
  const path = useRouterStore((s) => s.path)
  const status = useSessionStore((s) => s.status)
  if (status === 'needs-setup') return <SetupForm />
  if (path === '/join' || path === '/register') return <JoinForm />
  return <SignInForm />
}
