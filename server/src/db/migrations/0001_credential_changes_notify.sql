-- Every instance may keep live credentials in memory for a few seconds (CREDENTIAL_CACHE_S). A change to a
-- credential row (revoked, deleted, rescoped), by the service or by hand in SQL, announces the key hash it concerns
-- on svc_credentials, delivered at commit ('<hash hex> <credential id>'), so every instance forgets it at once and
-- closes the websockets opened with it.
CREATE FUNCTION svc_notify_credential_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('svc_credentials', encode(OLD.secret_hash, 'hex') || ' ' || OLD.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER api_credentials_notify_change AFTER UPDATE OR DELETE ON api_credentials
  FOR EACH ROW EXECUTE FUNCTION svc_notify_credential_change();
