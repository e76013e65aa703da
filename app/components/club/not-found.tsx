import { Link } from "react-router";
import { ErrorPanel } from "~/components/ui/error-boundary";
import { CLUB_NOT_FOUND } from "~/schemas/club-options";

/** The 404 of the club's pages (/clubs/{id} and its tabs, /clubs/{id}/create): the club is gone. */
export function ClubNotFound() {
  return (
    <ErrorPanel title={CLUB_NOT_FOUND}>
      <span className="block">This club doesn't exist or has been deleted</span>
      <Link to="/clubs" className="btn-primary mt-6">
        Back to Clubs
      </Link>
    </ErrorPanel>
  );
}
