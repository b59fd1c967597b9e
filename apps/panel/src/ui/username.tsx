import { nicknameOf } from '@tp/contract/profile';

/** A username `name#1234` shown as the name plus a muted suffix (spec section 2 Gift, Hub). */
export function Username(props: { value: string; className?: string }) {
  const nickname = nicknameOf(props.value);
  if (nickname === props.value) return <span className={props.className}>{props.value}</span>;
  return (
    <span className={props.className}>
      {nickname}
      <span className="muted">{props.value.slice(nickname.length)}</span>
    </span>
  );
}
