import { initials } from './initials';

/** The user's picture, or their initials on a coloured disc. */
export function Avatar(props: {
  picture?: string | null;
  givenName?: string | null;
  familyName?: string | null;
  size?: number;
  label?: string;
}) {
  const size = props.size ?? 40;
  if (props.picture)
    return (
      <img
        className="avatar"
        src={props.picture}
        alt={props.label ?? ''}
        width={size}
        height={size}
        style={{ width: size, height: size }}
      />
    );
  return (
    <span
      className="avatar avatar--initials"
      style={{ width: size, height: size, fontSize: size * 0.4 }}
      aria-label={props.label}
      role={props.label ? 'img' : undefined}
    >
      {initials(props.givenName, props.familyName)}
    </span>
  );
}
