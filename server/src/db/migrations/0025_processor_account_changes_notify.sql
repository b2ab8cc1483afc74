-- Every instance may keep each merchant's processor account, or its having none, in memory for a few seconds
-- (PROCESSOR_ACCOUNT_CACHE_S). A change to an account row (connected, replaced, removed), by the service, the CLI or
-- by hand in SQL, announces the merchant's id on svc_processor_accounts, delivered at commit, so every instance
-- forgets it at once; a TRUNCATE announces '*' (forget every merchant's). The change also turns on a setting for the
-- rest of its transaction: an instance reading the account through that transaction sees a row that may yet be
-- rolled back, and does not keep it.
CREATE FUNCTION svc_notify_processor_account_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('svc_processor_accounts', '*');
  ELSE
    -- An update that keeps the merchant sends one notice: PostgreSQL drops a transaction's duplicate notices.
    IF TG_OP <> 'DELETE' THEN
      PERFORM pg_notify('svc_processor_accounts', NEW.merchant_id::text);
    END IF;
    IF TG_OP <> 'INSERT' THEN
      PERFORM pg_notify('svc_processor_accounts', OLD.merchant_id::text);
    END IF;
  END IF;
  PERFORM set_config('svc.processor_accounts_changed', 'on', true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER processor_accounts_notify_change AFTER INSERT OR UPDATE OR DELETE ON processor_accounts
  FOR EACH ROW EXECUTE FUNCTION svc_notify_processor_account_change();
--> statement-breakpoint
CREATE TRIGGER processor_accounts_notify_truncate AFTER TRUNCATE ON processor_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION svc_notify_processor_account_change();
