//! Every category Veil reports, in one table: its id (what policies, tokens, audit
//! lines and metrics name), a label for people, how bad a leak of it is, and the group
//! it belongs to. Every built-in rule's category is in it (a test); a category of the
//! policy's own (a custom rule's) is not, and reads as its id, medium, in no group.

/// How bad a leak of this category is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Severity {
    Low,
    Medium,
    High,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Low => "LOW",
            Severity::Medium => "MEDIUM",
            Severity::High => "HIGH",
        }
    }
}

/// What kind of data a category is: each category is in one group. The policy's group
/// names (issue 49) are unions of them: `PII` is contact, personal, government-id,
/// health and financial data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Group {
    /// Ways to reach a person: e-mail, phone, postal address.
    Contact,
    /// Who a person is, beyond government numbers: names, birth dates, their vehicles
    /// and devices.
    Personal,
    /// Numbers a government issues: social security, identity, passport, driving
    /// licence and tax numbers.
    GovernmentId,
    /// Health insurance and patient numbers.
    Health,
    /// Money: cards, accounts, routing numbers, wallets, tax and company registrations.
    Financial,
    /// Credentials: keys, tokens, passwords, connection strings.
    Secret,
    /// Addresses of machines: IP and MAC addresses.
    Network,
    /// The company's own names: internal hosts and URLs, code names, customers and
    /// organisations.
    Internal,
}

impl Group {
    pub const ALL: [Group; 8] = [
        Group::Contact,
        Group::Personal,
        Group::GovernmentId,
        Group::Health,
        Group::Financial,
        Group::Secret,
        Group::Network,
        Group::Internal,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Group::Contact => "CONTACT",
            Group::Personal => "PERSONAL",
            Group::GovernmentId => "GOVERNMENT_ID",
            Group::Health => "HEALTH",
            Group::Financial => "FINANCIAL",
            Group::Secret => "SECRETS",
            Group::Network => "NETWORK",
            Group::Internal => "INTERNAL",
        }
    }
}

/// One category.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Category {
    pub id: &'static str,
    pub label: &'static str,
    pub severity: Severity,
    pub group: Group,
}

const fn cat(id: &'static str, label: &'static str, severity: Severity, group: Group) -> Category {
    Category { id, label, severity, group }
}

use Group::*;
use Severity::*;

/// Every built-in category (52; 23 of them secrets), by group.
pub const CATEGORIES: &[Category] = &[
    cat("EMAIL", "Email address", Medium, Contact),
    cat("PHONE", "Phone number", Medium, Contact),
    cat("ADDRESS", "Street address", Medium, Contact),
    cat("DATE_OF_BIRTH", "Date of birth", Medium, Personal),
    cat("PERSON", "Person name", Medium, Personal),
    cat("VEHICLE_ID", "Vehicle identification number", Medium, Personal),
    cat("DEVICE_ID", "Device identifier (IMEI)", Medium, Personal),
    cat("SSN", "US Social Security number", High, GovernmentId),
    cat("ITIN", "US Individual Taxpayer Identification Number", High, GovernmentId),
    cat("PASSPORT", "Passport number", High, GovernmentId),
    cat("DRIVERS_LICENSE", "Driver's licence number", High, GovernmentId),
    cat("NATIONAL_ID", "National identity number", High, GovernmentId),
    cat("TAX_ID", "Tax identification number", High, GovernmentId),
    cat("HEALTH_ID", "Health insurance or patient number", High, Health),
    cat("CREDIT_CARD", "Payment card number", High, Financial),
    cat("IBAN", "IBAN", High, Financial),
    cat("VAT_NUMBER", "VAT identification number", Medium, Financial),
    cat("COMPANY_ID", "Company registration number", Medium, Financial),
    cat("ROUTING_NUMBER", "Bank routing number", High, Financial),
    cat("BANK_ACCOUNT", "Bank account number", High, Financial),
    cat("CRYPTO_WALLET", "Cryptocurrency wallet address", Medium, Financial),
    cat("AWS_ACCESS_KEY", "AWS access key id", High, Secret),
    cat("API_KEY", "AI vendor API key", High, Secret),
    cat("GITHUB_TOKEN", "GitHub token", High, Secret),
    cat("GITLAB_TOKEN", "GitLab token", High, Secret),
    cat("SLACK_TOKEN", "Slack token", High, Secret),
    cat("STRIPE_KEY", "Stripe key", High, Secret),
    cat("GOOGLE_API_KEY", "Google API key", High, Secret),
    cat("JWT", "JSON Web Token", High, Secret),
    cat("PRIVATE_KEY", "PEM private key", High, Secret),
    cat("CONNECTION_STRING", "Connection string with credentials", High, Secret),
    cat("PASSWORD", "Password or secret assignment", High, Secret),
    cat("BEARER_TOKEN", "Bearer token", High, Secret),
    cat("SECRET", "High-entropy secret assignment", High, Secret),
    cat("AWS_SECRET_KEY", "AWS secret access key", High, Secret),
    cat("NPM_TOKEN", "npm token", High, Secret),
    cat("PYPI_TOKEN", "PyPI token", High, Secret),
    cat("HUGGINGFACE_TOKEN", "Hugging Face token", High, Secret),
    cat("SENDGRID_KEY", "SendGrid API key", High, Secret),
    cat("TWILIO_KEY", "Twilio key or account id", High, Secret),
    cat("SHOPIFY_TOKEN", "Shopify token", High, Secret),
    cat("CLOUD_CREDENTIAL", "Cloud provider credential", High, Secret),
    cat("SERVICE_TOKEN", "Credential of a named service", High, Secret),
    cat("WEBHOOK_URL", "Webhook URL with its secret", High, Secret),
    cat("MAC_ADDRESS", "MAC address", Low, Network),
    cat("PRIVATE_IP", "Private IP address", Low, Network),
    cat("IP_ADDRESS", "Public IP address", Low, Network),
    cat("ORGANIZATION", "Organization name", Medium, Internal),
    cat("INTERNAL_URL", "Internal URL", Low, Internal),
    cat("INTERNAL_HOST", "Internal host name", Low, Internal),
    cat("CODE_NAME", "Project code name", Medium, Internal),
    cat("CUSTOMER_NAME", "Customer name", Medium, Internal),
];

/// The category `id`, if it is a built-in one.
pub fn find(id: &str) -> Option<&'static Category> {
    CATEGORIES.iter().find(|c| c.id == id)
}

/// A human label for a category: its own, or its id for a category of the policy's.
pub fn label(id: &str) -> &str {
    find(id).map_or(id, |c| c.label)
}

/// How bad a leak of a category is: medium for a category of the policy's own.
pub fn severity(id: &str) -> Severity {
    find(id).map_or(Severity::Medium, |c| c.severity)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule's category is in the table, with the rule's severity; no id twice.
    #[test]
    fn every_rule_category_is_in_the_table() {
        for rule in super::super::catalog::all() {
            let Some(category) = find(rule.category) else {
                panic!("{}: category {} is not in the table", rule.id, rule.category)
            };
            assert_eq!(category.severity, rule.severity, "{}", rule.id);
        }
        for (i, c) in CATEGORIES.iter().enumerate() {
            assert!(CATEGORIES.get(i + 1..).unwrap_or_default().iter().all(|o| o.id != c.id), "{} twice", c.id);
            assert!(c.id.bytes().all(|b| b.is_ascii_uppercase() || b == b'_'), "{}", c.id);
        }
        // Every category in the table is one a rule (or the model stage) reports.
        for c in CATEGORIES {
            let used = super::super::catalog::all().any(|r| r.category == c.id) || c.id == "ORGANIZATION";
            assert!(used, "{} is in the table but no rule reports it", c.id);
        }
    }

    #[test]
    fn categories_of_the_policy_own_read_as_their_id() {
        assert_eq!((label("EMPLOYEE_ID"), severity("EMPLOYEE_ID")), ("EMPLOYEE_ID", Severity::Medium));
        assert_eq!(
            (label("EMAIL"), severity("SSN"), find("GITHUB_TOKEN").map(|c| c.group)),
            ("Email address", Severity::High, Some(Group::Secret))
        );
    }
}
