import { useState } from 'preact/hooks';
import { type Session, signIn } from '../api';
import { Screen, Status } from '../ui';

/** One field: a user token (the user's screens) or the admin token (the operator screens). */
export function SignIn(props: { onSignedIn: (s: Session) => void; notice?: string }): preact.JSX.Element {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string>();
  const submit = (e: Event): void => {
    e.preventDefault();
    setError(undefined);
    signIn(token.trim()).then(
      (s) => {
        setToken('');
        props.onSignedIn(s);
      },
      (err: Error) => setError(err.message),
    );
  };
  return (
    <Screen title="Sign in">
      <form class="card" onSubmit={submit}>
        <label>
          Access token
          <input
            type="password"
            required
            autoComplete="off"
            value={token}
            onInput={(e) => setToken(e.currentTarget.value)}
          />
        </label>
        <button type="submit">Sign in</button>
        <Status error={error} message={props.notice} />
      </form>
      <p>Operators sign in with the hub's admin token.</p>
    </Screen>
  );
}
