package dev.esgen.example.account;

/** A command the account refuses: overdraft, a closed account, a non-positive amount. */
public final class AccountRuleException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public AccountRuleException(String message) {
    super(message);
  }
}
