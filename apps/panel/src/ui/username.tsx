/** A username `name#1234` shown as the name plus a muted suffix (spec section 2 Gift, Hub). */
export function Username(props: { value: string; className?: string }) {
  const i = props.value.lastIndexOf('#');
  if (i <= 0) return <span className={props.className}>{props.value}</span>;
  return (
    <span className={props.className}>
      {props.value.slice(0, i)}
      <span className="muted">{props.value.slice(i)}</span>
    </span>
  );
}
