// expected: have the same shape
import WebServiceKit

func callbackTooFew(_ client: WebServiceClient) {
    client.perform(.userRepos, "octocat", success: { _ in }, failure: { _ in })
}
